#pragma once
// The two implementations of kestrel/io/table_format.hpp (csv_table_format.cpp,
// libsvm_table_format.cpp), listed by table_formats().
#include "kestrel/io/table_format.hpp"

namespace kestrel::detail {

const TableFormat& csv_table_format();
const TableFormat& libsvm_table_format();

}  // namespace kestrel::detail

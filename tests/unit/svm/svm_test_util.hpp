#pragma once
// Shared by the SVM tests: the reference data and estimators built from their ModelInfo
// (tests/estimator_test_util.hpp), under the names the SVM tests use.
#include "estimator_test_util.hpp"

namespace kestrel::svm_test {

using test::load;
using test::make;
using test::threads;

}  // namespace kestrel::svm_test

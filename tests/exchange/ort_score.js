// Scores an ONNX file with ONNX Runtime (npm's onnxruntime-node, CPU):
//   node ort_score.js ORT_PACKAGE_DIR MODEL.onnx INPUT.json OUTPUT.json [OUTPUT_NAME,...]
// INPUT.json: {"columns": {"name": {"type": "float"|"string", "values": [...]}}}, one [N, 1]
// graph input per column (null: a missing float, NaN). OUTPUT.json: per output its type,
// dims and values (int64 as numbers; a ZipMap output as its list of {class: p} objects).
const ort = require(process.argv[2]);
const fs = require('fs');

function plain(value) {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

(async () => {
  const session = await ort.InferenceSession.create(process.argv[3]);
  const input = JSON.parse(fs.readFileSync(process.argv[4], 'utf8'));
  const feeds = {};
  for (const [name, column] of Object.entries(input.columns)) {
    const n = column.values.length;
    if (column.type === 'string') feeds[name] = new ort.Tensor('string', column.values, [n, 1]);
    else feeds[name] = new ort.Tensor('float32', Float32Array.from(column.values, (v) => (v === null ? NaN : v)), [n, 1]);
  }
  // onnxruntime-node returns tensors only ("Non tensor type is temporarily not supported"):
  // a ZipMap model is run for its other outputs, named here.
  const results = process.argv[6] ? await session.run(feeds, process.argv[6].split(',')) : await session.run(feeds);
  const out = {};
  for (const [name, value] of Object.entries(results)) {
    if (value && value.dims !== undefined) out[name] = {type: value.type, dims: value.dims, data: Array.from(value.data, plain)};
    else out[name] = {type: 'non-tensor', data: plain(value)};
  }
  fs.writeFileSync(process.argv[5], JSON.stringify(out));
})().catch((e) => {
  console.error('ort_score: ' + e.message);
  process.exit(1);
});

// Runs an ONNX model with ONNX Runtime for Node.js, for fxlint_capture.onnx_run.
// Usage: node onnx_run.js MANIFEST. The manifest (JSON) names the model, the
// inputs (raw little-endian files with dtype and shape) and a directory for
// the outputs; the output list is written to OUT_DIR/outputs.json.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array,
  int16: Int16Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

function readTensor(spec) {
  const bytes = fs.readFileSync(spec.file);
  const Array = ARRAYS[spec.dtype];
  if (!Array) throw new Error(`unsupported input dtype ${spec.dtype}`);
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new ort.Tensor(spec.dtype, new Array(copy), spec.shape);
}

async function main() {
  const manifest = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const session = await ort.InferenceSession.create(manifest.model);
  const feeds = {};
  for (const spec of manifest.inputs) {
    if (session.inputNames.includes(spec.name)) feeds[spec.name] = readTensor(spec);
  }
  const results = await session.run(feeds);
  const outputs = session.outputNames.map((name, i) => {
    const t = results[name];
    const file = path.join(manifest.out_dir, `output_${i}.bin`);
    const data = t.data;
    fs.writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return {name, dtype: t.type, shape: t.dims, file};
  });
  fs.writeFileSync(path.join(manifest.out_dir, 'outputs.json'), JSON.stringify(outputs));
}

main().catch((e) => {
  process.stderr.write(`${e && e.message ? e.message : e}\n`);
  process.exit(1);
});

// Brotli at its best quality, by Node's zlib (Node is needed for the build anyway, so the
// build stays standard-library Python): sitebuild/compress.py. Argument: a JSON file of
// [source, target] pairs.
import { brotliCompressSync, constants } from "node:zlib";
import { readFileSync, writeFileSync } from "node:fs";
for (const [source, target] of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  const data = readFileSync(source);
  writeFileSync(target, brotliCompressSync(data, { params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
}

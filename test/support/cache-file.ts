// How the loader (src/loader.cjs) seals a cache file: its data, then the CRC-32 of the data (4
// bytes, big-endian). Tests that write a well-formed file of the wrong content seal it this way.
import { crc32 } from "node:zlib"

export const SEAL_BYTES = 4

export const sealed = (data: Buffer | string): Buffer => {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data
  const seal = Buffer.alloc(SEAL_BYTES)
  seal.writeUInt32BE(crc32(bytes))
  return Buffer.concat([bytes, seal])
}

/** A cache file's data, without its seal. */
export const unsealed = (bytes: Buffer): Buffer => bytes.subarray(0, -SEAL_BYTES)

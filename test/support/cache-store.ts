// A parse cache store in memory, as the loader's (src/loader.cjs) but without its files: the
// service tests of the parse cache hand it to enableParseCache and look at what was written.
export const memoryStore = () => {
  const files = new Map<string, Uint8Array>()
  const store = {
    build: "test",
    read: (name: string) => files.get(name),
    open: (name: string) => {
      const data = files.get(name)
      return data === undefined ? undefined : { size: data.length, read: () => data }
    },
    write: (name: string, data: Uint8Array) => void files.set(name, data),
    remove: (name: string) => void files.delete(name),
    has: (name: string) => files.has(name)
  }
  return { files, store }
}

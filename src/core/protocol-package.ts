// The protocol package: its name, and whether a package.json names it (the corpus is the protocol
// package itself, so its own builder modules count as anchor sources: sdp-format.md section 7.1).

export const PROTOCOL_PACKAGE = "@libar-dev/software-delivery-protocol"

/** True when a package.json's text names the protocol package; false for any other or unreadable text. */
export const isProtocolPackageJson = (text: string): boolean => {
  try {
    return (JSON.parse(text) as { name?: unknown } | null)?.name === PROTOCOL_PACKAGE
  } catch {
    return false
  }
}

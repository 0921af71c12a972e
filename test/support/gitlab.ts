// A fake GitLab REST API on the loopback address for the merge-request note: the notes endpoints
// of one project's merge requests (list with GitLab's offset pagination and X-Next-Page, create,
// edit), PRIVATE-TOKEN checked as GitLab does (an unknown token 401, a read-only one 403 on a
// write), every call recorded. `hang` leaves every request unanswered, for the timeouts.
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface FakeNote {
  readonly id: number
  body: string
  readonly system: boolean
}

export interface FakeCall {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly token: string | undefined
  readonly body: unknown
}

export interface FakeGitlab {
  /** The CI_API_V4_URL a job would see. */
  readonly api: string
  readonly notes: FakeNote[]
  readonly calls: FakeCall[]
  close(): Promise<void>
}

export interface FakeGitlabOptions {
  /** Token -> what it may do: "write" (the api scope), "read" (read_api). Any other token is refused with 401. */
  readonly tokens?: Readonly<Record<string, "write" | "read">>
  readonly notes?: ReadonlyArray<FakeNote>
  readonly hang?: boolean
}

const NOTES = /^\/api\/v4\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/

export const fakeGitlab = async (options: FakeGitlabOptions = {}): Promise<FakeGitlab> => {
  const notes: FakeNote[] = (options.notes ?? []).map((n) => ({ ...n }))
  const calls: FakeCall[] = []
  const tokens = options.tokens ?? {}
  const server = http.createServer((req, res) => {
    let raw = ""
    req.setEncoding("utf8")
    req.on("data", (c: string) => (raw += c))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const token = req.headers["private-token"] as string | undefined
      const body = raw === "" ? undefined : JSON.parse(raw)
      calls.push({ method: req.method ?? "", path: url.pathname, query: url.search, token, body })
      if (options.hang) return
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "Content-Type": "application/json", ...headers })
        res.end(JSON.stringify(value))
      }
      const m = NOTES.exec(url.pathname)
      if (m === null) return send(404, { message: "404 Not Found" })
      const scope = token === undefined ? undefined : tokens[token]
      if (scope === undefined) return send(401, { message: "401 Unauthorized" })
      if (req.method === "GET" && m[3] === undefined) {
        const per = Number(url.searchParams.get("per_page") ?? "20")
        const page = Number(url.searchParams.get("page") ?? "1")
        const slice = notes.slice((page - 1) * per, page * per)
        const next = page * per < notes.length ? String(page + 1) : ""
        return send(200, slice, { "X-Page": String(page), "X-Per-Page": String(per), "X-Next-Page": next })
      }
      if (scope !== "write")
        return send(403, { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token." })
      if (req.method === "POST" && m[3] === undefined) {
        const note = { id: 1000 + notes.length, body: (body as { body: string }).body, system: false }
        notes.push(note)
        return send(201, note)
      }
      if (req.method === "PUT" && m[3] !== undefined) {
        const note = notes.find((n) => n.id === Number(m[3]))
        if (note === undefined) return send(404, { message: "404 Not found" })
        note.body = (body as { body: string }).body
        return send(200, note)
      }
      return send(405, { message: "405 Method Not Allowed" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    api: `http://127.0.0.1:${port}/api/v4`,
    notes,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

// jsdom ships no types, and @types/jsdom follows other majors than the pinned one: what
// test/support/mermaid.ts uses of it.
declare module "jsdom" {
  interface DomElement {
    readonly id: string
    innerHTML: string
    readonly textContent: string | null
    querySelector(selector: string): DomElement | null
    querySelectorAll(selector: string): Iterable<DomElement>
  }
  export class JSDOM {
    constructor(html?: string, options?: { pretendToBeVisual?: boolean })
    readonly window: { readonly document: { createElement(tag: string): DomElement } }
  }
}

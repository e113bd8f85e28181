/** One page of a cursor list: its items and where the next page starts. */
export interface PageInfo<Item> {
  items: Item[];
  /** The cursor of the next page, or null when this page is the last. */
  next: string | null;
}

/**
 * A cursor list, fetched lazily page by page: `for await (const item of list)` walks every item,
 * `for await (const page of list.pages())` every page as the API answered it.
 */
export class PageIterator<Item, Page> implements AsyncIterable<Item> {
  constructor(
    private readonly fetchPage: (cursor: string | undefined) => Promise<Page>,
    private readonly read: (page: Page) => PageInfo<Item>,
  ) {}

  async *pages(): AsyncGenerator<Page> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      const { next } = this.read(page);
      // A cursor seen before would loop forever: stop rather than trust it.
      if (next === null || seen.has(next)) return;
      seen.add(next);
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.pages()) yield* this.read(page).items;
  }

  /** Every item in one array (reads every page: use on bounded lists). */
  async toArray(): Promise<Item[]> {
    const all: Item[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

/** The cursor to continue from, when the page says more follow. */
export function nextCursor(page: { hasMore: boolean; nextCursor?: string | null }): string | null {
  return page.hasMore && page.nextCursor ? page.nextCursor : null;
}

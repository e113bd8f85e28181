/** The account and mode a key acts in: every lab order, wearable and event query is bounded by both. */
export interface Scope {
  accountId: string;
  mode: "test" | "live";
}

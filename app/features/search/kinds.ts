/** The global search's result shape and kinds (issue #41), shared by the server and the browser. */

/** One result: what it is, its title and detail line, and the admin page it opens. */
export interface SearchResult {
  kind: "proposal" | "organisation" | "user" | "invoice" | "message";
  id: string;
  title: string;
  detail: string;
  href: string;
}

/** Results of each kind, in this order. */
export const SEARCH_KINDS = ["invoice", "organisation", "user", "proposal", "message"] as const;

/** What each kind of result is called (headings of /admin/search, the list's labels). */
export const KIND_LABELS: Record<SearchResult["kind"], string> = {
  invoice: "Invoice",
  organisation: "Client organisation",
  user: "Account",
  proposal: "Proposal",
  message: "Message",
};

/** Where each side reads a proposal's conversation (docs/product.md#conversations). */
export function threadPath(side: "client" | "agency", proposalId: number): string {
  return side === "agency" ? `/admin/proposals/${proposalId}` : `/proposals/${proposalId}`;
}

/** The conversation's Files tab. */
export function filesPath(side: "client" | "agency", proposalId: number): string {
  return `${threadPath(side, proposalId)}/files`;
}

/** One shared file's download URL (the same access rule as the conversation). */
export function fileUrl(side: "client" | "agency", proposalId: number, fileId: number): string {
  return `${threadPath(side, proposalId)}/files/${fileId}`;
}

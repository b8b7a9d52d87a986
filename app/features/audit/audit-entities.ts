/** What an audit event is about; shared by the server and the /admin/audit filter. */
export const AUDIT_ENTITIES = [
  "proposal",
  "invoice",
  "user",
  "meeting",
  "commission",
  "payout",
  "settings",
  "mail",
  "contact",
  "message",
  "offer",
  "job",
  "organisation",
  "case_study",
  "testimonial",
  "billing-plan",
  "unapplied-payment",
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

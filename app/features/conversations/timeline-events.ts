/**
 * Which system events each side sees in a proposal's timeline, and how they read
 * (docs/product.md#conversations-timeline). The lists are used IN the timeline query, so an event a
 * side may not see never leaves the database for them. Issues adding proposal events (versions,
 * acceptance, meetings, payments) add their `entity:action` here.
 */
import { PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import { formatCents } from "#app/lib/money";
import type { ProposalStatus } from "#app/db/enums";

/** Events a client sees, as `entity:action`. */
export const CLIENT_TIMELINE_EVENTS = [
  "proposal:created",
  "proposal:updated",
  "proposal:status-changed",
  "proposal:status-undone",
  "proposal:revision-requested",
  "proposal:approved",
  "proposal:declined",
  "invoice:created",
  "invoice:marked-paid",
  "invoice:payment-recorded",
  "invoice:refund-recorded",
  "meeting:created",
  "meeting:requested",
  "meeting:accepted",
  "meeting:confirmed",
  "meeting:declined",
  "meeting:rescheduled",
  "meeting:cancelled",
] as const;

/** Events an ambassador sees on the proposals they submitted: status only. */
export const AMBASSADOR_TIMELINE_EVENTS = ["proposal:created", "proposal:status-changed", "proposal:status-undone"] as const;

/** Entities never shown as system events (messages are shown as themselves). */
export const HIDDEN_TIMELINE_ENTITIES = ["message"] as const;

const FIELD_LABELS: Record<string, string> = {
  projectName: "project name",
  projectDetails: "project details",
  timeline: "timeline",
  budgetCents: "budget",
  targetAudience: "target audience",
  designInspiration: "design inspiration",
  numberOfPages: "number of pages",
  websiteGoal: "website goal",
};

/** A payment event's amount in its own currency (recorded in the event). */
const paid = (after: Record<string, unknown>, sign = 1) =>
  formatCents(sign * Number(after.amountCents ?? 0), typeof after.currency === "string" ? after.currency : undefined);

const status = (value: unknown) => PROPOSAL_STATUS_LABELS[value as ProposalStatus] ?? String(value ?? "—");

/**
 * @param event - an audit event of the proposal (its `before`/`after` as recorded).
 * @returns the sentence shown after the actor's name, and an optional quoted detail (a comment, a reason).
 */
export function describeEvent(event: { entity: string; action: string; before: unknown; after: unknown }): {
  text: string;
  detail?: string;
} {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  switch (`${event.entity}:${event.action}`) {
    case "proposal:created":
      return { text: after.source === "ambassador" ? "submitted the proposal" : "requested the proposal" };
    case "proposal:updated": {
      const known = Object.keys(FIELD_LABELS).filter((key) => key in after);
      const fields = [...known, ...Object.keys(after).filter((key) => !(key in FIELD_LABELS))].map((key) => FIELD_LABELS[key] ?? key);
      return { text: `edited the request: ${fields.join(", ") || "no field"}` };
    }
    case "proposal:status-changed":
      return { text: `changed the status from ${status(before.status)} to ${status(after.status)}` };
    case "proposal:status-undone":
      return { text: `undid a status change: back to ${status(after.status)} from ${status(before.status)}` };
    case "proposal:revision-requested":
      return { text: "requested a revision", detail: String(after.revisionComment ?? "") };
    case "proposal:approved":
      return { text: "approved the proposal" };
    case "proposal:declined":
      return { text: "declined the proposal", detail: String(after.declineReason ?? "") };
    case "invoice:created":
      return { text: `generated invoice ${String(after.number ?? "")}`.trim() };
    case "invoice:marked-paid":
      return { text: "marked the invoice paid" };
    case "invoice:payment-recorded":
      return { text: `recorded a payment of ${paid(after)} on invoice ${String(after.number ?? "")}`.trim() };
    case "invoice:refund-recorded":
      return { text: `recorded a refund of ${paid(after, -1)} on invoice ${String(after.number ?? "")}`.trim() };
    case "invoice:marked-unpaid":
      return { text: "marked the invoice unpaid" };
    case "invoice:deleted":
      return { text: `deleted invoice ${String(before.number ?? "")}`.trim() };
    case "meeting:created":
    case "meeting:requested":
      return { text: "requested a meeting" };
    case "meeting:accepted":
    case "meeting:confirmed":
      return { text: "confirmed the meeting" };
    case "meeting:declined":
      return { text: "declined the meeting request" };
    case "meeting:rescheduled":
      return { text: "moved the meeting" };
    case "meeting:cancelled":
      return { text: "cancelled the meeting" };
    default:
      return { text: `${event.entity} ${event.action.replace(/-/g, " ")}` };
  }
}

import { SelectInput, TextArea, TextInput, type FieldMetadata } from "#app/components/ui/form";
import { WEBSITE_GOALS } from "#app/db/enums";
import { PROPOSAL_LIMITS } from "../proposals.messages";

/** The fields of `proposalRequestSchema` / `editProposalSchema`. */
type Fields = Record<
  "projectName" | "projectDetails" | "timeline" | "budget" | "numberOfPages" | "websiteGoal" | "targetAudience" | "designInspiration",
  FieldMetadata
>;

/** The proposal fields of the request and edit forms (docs/product.md#proposals). */
export function ProposalFields({ fields }: { fields: Fields }) {
  return (
    <>
      <TextInput field={fields.projectName} label="Project name (optional)" />
      <TextArea
        field={fields.projectDetails}
        label="Project details"
        rows={6}
        hint="What should the website do? Who is it for? Anything we should know."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput field={fields.timeline} label="Timeline (optional)" placeholder="e.g. 6 weeks" />
        <TextInput field={fields.budget} label="Budget (optional)" inputMode="decimal" placeholder="e.g. $5,000" hint="In US dollars." />
        <TextInput
          field={fields.numberOfPages}
          label="Number of pages (optional)"
          type="number"
          min={1}
          max={PROPOSAL_LIMITS.pages}
          step={1}
        />
        <SelectInput
          field={fields.websiteGoal}
          label="Website goal (optional)"
          placeholder="Choose…"
          options={WEBSITE_GOALS.map((goal) => ({ value: goal, label: goal }))}
        />
      </div>
      <TextArea field={fields.targetAudience} label="Target audience (optional)" rows={2} />
      <TextInput
        field={fields.designInspiration}
        label="Design inspiration (optional)"
        type="url"
        placeholder="https://"
        hint="A link to a site or design you like."
      />
    </>
  );
}

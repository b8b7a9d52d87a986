import { proposalNextStep, type NextStepFacts } from "../status-next-step";

/**
 * What happens next with a proposal, in words, next to its status (docs/product.md#project-status):
 * "Waiting for your approval or decline.", "The agency is preparing your offer." …
 */
export function ProposalNextStep({ proposal, className = "" }: { proposal: NextStepFacts; className?: string }) {
  const step = proposalNextStep(proposal);
  return (
    <p
      className={`text-sm ${step.waitsFor === "client" ? "font-semibold text-brand-800" : "text-slate-700"} ${className}`}
      data-testid="next-step"
    >
      <span className="sr-only">What happens next: </span>
      {step.text}
    </p>
  );
}

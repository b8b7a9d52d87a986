import type { Route } from "./+types/proposal-certificate";
import { getCertificatePdf } from "#app/features/agreements/acceptance.server";
import { certificateResponse } from "#app/features/agreements/certificate-response.server";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";

/**
 * `/admin/proposals/:proposalId/certificate/:certificateId`: the certificate of acceptance PDF
 * (docs/product.md#certificates) for admins (the layout and the use-case check it).
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const proposalId = paramId(params.proposalId, PROPOSAL_MESSAGES.notFound);
  return certificateResponse(await getCertificatePdf(db, actor, proposalId, params.certificateId, new URL(request.url).origin));
}

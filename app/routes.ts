import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // Public site (docs/product.md#public-site).
  layout("routes/site/_layout.tsx", [
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("projects", "routes/site/projects.tsx"),
    route("contact", "routes/site/contact.tsx"),
    // A certificate of acceptance, checked by anyone holding it (docs/product.md#certificates).
    route("verify/:certificateId", "routes/site/verify.tsx"),
    // Issue #40: a case study's draft previewed by an admin as the public page shows it.
    route("portfolio/preview/:caseStudyId", "routes/site/case-study-preview.tsx"),
    // docs/product.md#invoice-link: one invoice through a signed link, without signing in.
    route("i/:token", "routes/site/invoice-link.tsx"),
    // Issue #40: a published case study at /<slug> (the first four: /project1 … /project4); else the 404 page.
    route(":slug", "routes/site/case-study.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
  // Issue #40: case-study Open Graph images and uploaded screenshots.
  route("portfolio/og/:caseStudyId", "routes/resources/portfolio-og.ts"),
  route("portfolio/images/:imageId/:variant", "routes/resources/portfolio-image.ts"),
  route("i/:token/pdf", "routes/site/invoice-link-pdf.ts"),

  // Authentication screens (docs/product.md#accounts).
  layout("routes/auth/_layout.tsx", [
    route("login", "routes/auth/login.tsx"),
    route("login/two-factor", "routes/auth/two-factor.tsx"),
    route("register", "routes/auth/register.tsx"),
    route("register/ambassador", "routes/auth/register-ambassador.tsx"),
    route("forgot-password", "routes/auth/forgot-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("verify-email", "routes/auth/verify-email.tsx"),
    // An invitation to join a client organisation (docs/product.md#invitations).
    route("invitations/:token", "routes/auth/invitation.tsx"),
  ]),
  route("logout", "routes/auth/logout.tsx"),
  // docs/product.md#account-page: sign-in second step, passkey steps (JSON), e-mail change link.
  route("passkey/:step", "routes/auth/passkey.ts"),
  route("account/confirm-email", "routes/auth/confirm-email.tsx"),

  // Client area (docs/product.md#client-portal), guarded by routes/client/_layout.tsx.
  layout("routes/client/_layout.tsx", [
    route("client-dashboard", "routes/client/dashboard.tsx"),
    route("project-status", "routes/client/project-status.tsx"),
    route("proposal-request", "routes/client/proposal-request.tsx"),
    route("invoices", "routes/client/invoices.tsx"),
    // #39: the organisation's saved card (owners and billing people; docs/product.md#saved-cards).
    route("payment-method", "routes/client/payment-method.tsx"),
    route("proposals/:proposalId", "routes/client/proposal.tsx"),
    route("proposals/:proposalId/accept", "routes/client/proposal-accept.tsx"),
    // The proposal's conversation (docs/product.md#conversations): upload endpoint, Files tab, downloads.
    route("messages", "routes/client/messages.tsx"),
    route("proposals/:proposalId/messages", "routes/client/proposal-messages.ts"),
    route("proposals/:proposalId/files", "routes/client/proposal-files.tsx"),
    route("proposals/:proposalId/files/:fileId", "routes/client/proposal-file.ts"),
    route("proposals/:proposalId/certificate/:certificateId", "routes/client/proposal-certificate.ts"),
    route("edit-proposal/:proposalId", "routes/client/edit-proposal.tsx"),
    route("view-invoice/:invoiceId", "routes/client/view-invoice.tsx"),
    route("view-invoice/:invoiceId/pdf", "routes/client/invoice-pdf.ts"),
    route("client-dashboard/meetings/:meetingId/ics", "routes/client/meeting-ics.ts"),
    // Meetings booked from the agency's availability (docs/product.md#client-meetings).
    route("meetings", "routes/client/meetings.tsx"),
    route("meetings/book", "routes/client/book-meeting.tsx"),
    route("meetings/:meetingId/reschedule", "routes/client/reschedule-meeting.tsx"),
    // The client organisation, its people and invitations (docs/product.md#organisations); the header's switcher.
    route("organisation", "routes/client/organisation.tsx"),
    route("organisation/switch", "routes/client/switch-organisation.ts"),
    // Issue #40: a testimonial asked when a project was completed (organisation owners).
    route("testimonials/:testimonialId", "routes/client/testimonial.tsx"),
  ]),

  // Ambassador area (docs/product.md#ambassadors).
  route("ambassador", "routes/ambassador/_layout.tsx", [
    index("routes/ambassador/index.tsx"),
    route("dashboard", "routes/ambassador/dashboard.tsx"),
    route("submit-proposal", "routes/ambassador/submit-proposal.tsx"),
    route("earnings", "routes/ambassador/earnings.tsx"),
    // A submitted proposal's status events, read-only (docs/product.md#conversations).
    route("proposals/:proposalId", "routes/ambassador/proposal.tsx"),
  ]),

  // Admin console (docs/product.md#admin-console).
  route("admin", "routes/admin/_layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    // The global search (issue #41): the sidebar field's results, and the page without JavaScript.
    route("search", "routes/admin/search.tsx"),
    route("proposals", "routes/admin/proposals.tsx"),
    route("proposals/:proposalId", "routes/admin/proposal.tsx"),
    route("proposals/:proposalId/offer", "routes/admin/proposal-offer.tsx"),
    route("proposals/:proposalId/messages", "routes/admin/proposal-messages.ts"),
    route("proposals/:proposalId/files", "routes/admin/proposal-files.tsx"),
    route("proposals/:proposalId/files/:fileId", "routes/admin/proposal-file.ts"),
    route("proposals/:proposalId/certificate/:certificateId", "routes/admin/proposal-certificate.ts"),
    // Conversation inbox (docs/product.md#conversations-inbox).
    route("conversations", "routes/admin/conversations.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("invoices", "routes/admin/invoices.tsx"),
    route("invoices/edit/:invoiceId", "routes/admin/edit-invoice.tsx"),
    route("invoices/:invoiceId/payments", "routes/admin/invoice-payments.tsx"),
    // Card payments kept aside, not applied to a balance (issue #36, docs/product.md#card-payments).
    route("card-payments", "routes/admin/card-payments.tsx"),
    route("generate-invoice/:proposalId", "routes/admin/generate-invoice.tsx"),
    route("ambassadors", "routes/admin/ambassadors.tsx"),
    // Settings, one page per section (issue #41; one module for the sections that are forms of settings
    // fields, a static path each); /admin/settings shows the first section and takes the old page's forms.
    route("settings", "routes/admin/settings.tsx", { id: "routes/admin/settings" }),
    ...["company", "brand", "reminders", "payments", "commissions", "terms", "sign-in"].map((section) =>
      route(`settings/${section}`, "routes/admin/settings.tsx", { id: `routes/admin/settings/${section}` }),
    ),
    route("settings/availability", "routes/admin/settings-availability.tsx"),
    route("meetings", "routes/admin/meetings.tsx"),
    route("meetings/:meetingId/reschedule", "routes/admin/reschedule-meeting.tsx"),
    // Client organisations and their people (docs/product.md#admin-organisations).
    route("organisations", "routes/admin/organisations.tsx"),
    route("organisations/:organisationId", "routes/admin/organisation.tsx"),
    // Recurring billing plans (docs/product.md#recurring-billing, #39).
    route("billing-plans", "routes/admin/billing-plans.tsx"),
    route("billing-plans/new", "routes/admin/billing-plan-new.tsx"),
    route("billing-plans/:planId", "routes/admin/billing-plan.tsx"),
    // Issue #6: audit trail, invoice PDF, CSV exports (resource routes, guarded by the layout).
    route("audit", "routes/admin/audit.tsx"),
    route("outbox", "routes/admin/outbox.tsx"),
    route("invoices/:invoiceId/pdf", "routes/admin/invoice-pdf.ts"),
    route("proposals/export.csv", "routes/admin/proposals-export.ts"),
    route("users/export.csv", "routes/admin/users-export.ts"),
    route("invoices/export.csv", "routes/admin/invoices-export.ts"),
    route("ambassadors/export.csv", "routes/admin/commissions-export.ts"),
    // Commission payouts (docs/product.md#commissions-payouts).
    route("ambassadors/payouts.csv", "routes/admin/payouts-export.ts"),
    route("ambassadors/payouts/:payoutId/export.csv", "routes/admin/payout-export.ts"),
    // Contact inbox (docs/product.md#admin-messages).
    route("messages", "routes/admin/messages.tsx"),
    route("messages/:messageId", "routes/admin/message.tsx"),
    // Automatic reminders (docs/product.md#reminders-admin): a record's history and "Send reminder now".
    route("reminders/:recordKind/:recordId", "routes/admin/reminders.tsx"),
    // Issue #40: the portfolio — case studies (list, editor, a draft from a delivered project) and testimonials.
    route("case-studies", "routes/admin/case-studies.tsx"),
    route("case-studies/:caseStudyId", "routes/admin/case-study.tsx"),
    route("proposals/:proposalId/case-study", "routes/admin/proposal-case-study.tsx"),
    route("testimonials", "routes/admin/testimonials.tsx"),
  ]),

  // Any signed-in user: the account page (profile, sign-in security, notifications, their data, closing).
  // One page per section (issue #41), a static path each; /account shows the first and takes the old page's forms.
  route("account", "routes/account/settings.tsx", { id: "routes/account/settings" }),
  ...["profile", "security", "sessions", "privacy"].map((section) =>
    route(`account/${section}`, "routes/account/settings.tsx", { id: `routes/account/settings/${section}` }),
  ),
  // "Download my data": the ZIP as a file download (a resource route; docs/product.md#download-my-data).
  route("account/my-data", "routes/account/my-data-request.ts"),
  route("account/my-data/:token", "routes/account/my-data.ts"),

  // Light / dark / system theme toggle (docs/product.md#dark-mode): a form post setting a cookie.
  route("theme", "routes/resources/theme.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  // The agency's logo (public: e-mails show it), named by its content hash.
  route("brand/logo/:version", "routes/resources/brand-logo.ts"),
] satisfies RouteConfig;

import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  // Public site (spec §2 Public), issue #2.
  layout("routes/site/_layout.tsx", [
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("projects", "routes/site/projects.tsx"),
    route("contact", "routes/site/contact.tsx"),
    // One case-study template, one explicit route per project (/project1 … /project4).
    ...[1, 2, 3, 4].map((n) => route(`project${n}`, "routes/site/project.tsx", { id: `project${n}` })),
    route("*", "routes/site/not-found.tsx"),
  ]),

  // Authentication screens (spec §2), issue #3.
  layout("routes/auth/_layout.tsx", [
    route("login", "routes/auth/login.tsx"),
    route("register", "routes/auth/register.tsx"),
    route("register/ambassador", "routes/auth/register-ambassador.tsx"),
    route("forgot-password", "routes/auth/forgot-password.tsx"),
    route("reset-password", "routes/auth/reset-password.tsx"),
    route("verify-email", "routes/auth/verify-email.tsx"),
  ]),
  route("logout", "routes/auth/logout.tsx"),

  // Client area (spec §2 Client-only), guarded by routes/client/_layout.tsx.
  layout("routes/client/_layout.tsx", [
    route("client-dashboard", "routes/client/dashboard.tsx"),
    route("project-status", "routes/client/project-status.tsx"),
    route("proposal-request", "routes/client/proposal-request.tsx"),
    route("edit-proposal/:proposalId", "routes/client/edit-proposal.tsx"),
    route("view-invoice/:invoiceId", "routes/client/view-invoice.tsx"),
    route("view-invoice/:invoiceId/pdf", "routes/client/invoice-pdf.ts"),
    route("client-dashboard/meetings/:meetingId/ics", "routes/client/meeting-ics.ts"),
  ]),

  // Ambassador area (spec §2 Ambassador-only).
  route("ambassador", "routes/ambassador/_layout.tsx", [
    index("routes/ambassador/index.tsx"),
    route("dashboard", "routes/ambassador/dashboard.tsx"),
    route("submit-proposal", "routes/ambassador/submit-proposal.tsx"),
    route("earnings", "routes/ambassador/earnings.tsx"),
  ]),

  // Admin console (spec §2 Admin-only).
  route("admin", "routes/admin/_layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("proposals", "routes/admin/proposals.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("invoices", "routes/admin/invoices.tsx"),
    route("invoices/edit/:invoiceId", "routes/admin/edit-invoice.tsx"),
    route("generate-invoice/:proposalId", "routes/admin/generate-invoice.tsx"),
    route("ambassadors", "routes/admin/ambassadors.tsx"),
    route("settings", "routes/admin/settings.tsx"),
    // Issue #6: audit trail, invoice PDF, CSV exports (resource routes, guarded by the layout).
    route("audit", "routes/admin/audit.tsx"),
    route("invoices/:invoiceId/pdf", "routes/admin/invoice-pdf.ts"),
    route("proposals/export.csv", "routes/admin/proposals-export.ts"),
    route("users/export.csv", "routes/admin/users-export.ts"),
    route("invoices/export.csv", "routes/admin/invoices-export.ts"),
    route("ambassadors/export.csv", "routes/admin/commissions-export.ts"),
  ]),

  // Any signed-in user: notification preferences (issue #6).
  route("account", "routes/account/settings.tsx"),

  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
] satisfies RouteConfig;

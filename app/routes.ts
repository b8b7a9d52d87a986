import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  layout("routes/site/_layout.tsx", [
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("projects", "routes/site/projects.tsx"),
    route("contact", "routes/site/contact.tsx"),
    // One case-study template, one explicit route per project (/project1 … /project4).
    ...[1, 2, 3, 4].map((n) => route(`project${n}`, "routes/site/project.tsx", { id: `project${n}` })),
    route("*", "routes/site/not-found.tsx"),
  ]),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
] satisfies RouteConfig;

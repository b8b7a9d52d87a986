import { index, type RouteConfig } from "@react-router/dev/routes";

/** One page: the 25-row table (bench/floor/server.mjs). */
export default [index("routes/table.tsx")] satisfies RouteConfig;

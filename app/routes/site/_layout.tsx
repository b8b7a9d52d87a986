import { Outlet } from "react-router";
import { SiteFooter } from "#app/components/site-footer";
import { SiteHeader } from "#app/components/site-header";

/** Public site layout (docs/product.md#public-site): sticky header, page, footer. */
export default function SiteLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

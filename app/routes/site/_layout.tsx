import { Outlet } from "react-router";
import { SiteFooter } from "#app/components/site-footer";
import { SiteHeader } from "#app/components/site-header";

/**
 * Public site layout (docs/product.md#public-site): sticky header, page, footer. The column fills
 * the screen, so a short page (the 404) keeps its footer at the bottom, not mid-screen.
 */
export default function SiteLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

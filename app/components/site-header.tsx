import { HeaderBar, type NavItem } from "#app/components/portal-header";
import { owner } from "#app/content/site";

const links: NavItem[] = [
  { to: "/", label: "Home", end: true },
  { to: "/about", label: "About", end: true },
  { to: "/projects", label: "Projects", end: true },
  { to: "/contact", label: "Contact", end: true },
];

/**
 * Sticky public header (docs/product.md#header-bars): Home, About, Projects, Contact, Client Portal
 * (→ /login); on phones one compact row with a Menu disclosure (docs/product.md#phone-layouts).
 */
export function SiteHeader() {
  return <HeaderBar items={links} label="Main" title={owner.name} cta={{ to: "/login", label: "Client Portal" }} collapseBelow="md" />;
}

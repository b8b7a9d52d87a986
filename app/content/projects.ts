/**
 * The four project case studies (docs/product.md#public-site "Project content"). Static, typed data:
 * the owner edits this file; it is the one source of each project's name. Screenshot files
 * live in `public/screenshots/`: the SVG placeholders (a device frame in the project's colour,
 * `scripts/make-placeholders.ts`) are replaced by dropping a PNG, JPEG or WebP with the same
 * base name there (e.g. `project3-1.png`); see the README's "Images" section.
 */
export interface Screenshot {
  /** File name inside `public/screenshots/`. */
  file: string;
  /** Intrinsic size in pixels (rendered as width/height to avoid layout shift). */
  width: number;
  height: number;
}

export interface Project {
  /** Route slug: `/project1` … `/project4`. */
  slug: "project1" | "project2" | "project3" | "project4";
  /** The project's one name, used on every page (cards, case study, meta tags, placeholders). */
  title: string;
  /** The project's colour (a hex value): thumbnails and screenshot placeholders. */
  color: string;
  /** Summary box of the case study. */
  role: string;
  timeline: string;
  outcome: string;
  /** Short description for cards and the case-study header. */
  description: string;
  tech: string[];
  github: string;
  /** The live site's address; null while the project is not online (no "Live Site" link then). */
  live: string | null;
  images: Screenshot[];
  problem: string;
  solution: string;
  features: string[];
  impact: string;
}

const shots = (slug: string, count: number): Screenshot[] =>
  Array.from({ length: count }, (_, i) => ({ file: `${slug}-${i + 1}.svg`, width: 1280, height: 800 }));

export const projects: Project[] = [
  {
    slug: "project1",
    title: "Internship Hub",
    color: "#0e7490",
    role: "Solo developer: data model, both dashboards, authentication",
    timeline: "2023 · about 3 months, part-time",
    outcome: "A working prototype for students and businesses; not launched",
    description: "A student internship platform where students save and apply to listings and businesses post and manage them.",
    tech: ["React", "Firebase", "Next.js"],
    github: "https://github.com/alex-rivera-dev/internship-hub",
    // "A working prototype …; not launched": no live site to link to.
    live: null,
    images: shots("project1", 3),
    problem:
      "Students hunted for internships across scattered sites and e-mails, and local businesses had no simple place to post openings and follow who applied.",
    solution:
      "Internship Hub brings both sides together: students get a dashboard of saved listings and apply in one click, while businesses create an account, publish listings and track applications, with every change appearing in real time.",
    features: [
      "Student dashboard with saved listings",
      "Business account creation and listing dashboard",
      "Real-time updates",
      "Application tracking",
      "One-click apply",
    ],
    impact:
      "The project was never fully completed, but building it taught me real-time data modelling, role-specific dashboards and authentication flows that I have reused in every project since.",
  },
  {
    slug: "project2",
    title: "Kitchen Display System",
    color: "#c2410c",
    role: "Solo developer, on call in the kitchen during the event",
    timeline: "2024 · built in 2 weeks, used live for one night",
    outcome: "Every order of the night went through one shared real-time queue",
    description:
      "A real-time kitchen display system built for a pancake night event: guests order, the kitchen cooks, everyone sees the queue.",
    tech: ["React", "Firestore", "Firebase Hosting"],
    github: "https://github.com/alex-rivera-dev/kitchen-display-system",
    live: "https://kitchen-display.example.com",
    images: shots("project2", 5),
    problem:
      "At a busy pancake night, paper tickets and shouted orders meant lost orders, long waits and no idea of how many orders the kitchen was handling.",
    solution:
      "Guests place orders from a client-side form; the orders appear instantly in a real-time queue on the kitchen view, where cooks mark items done. The organisers follow the night's numbers live.",
    features: [
      "Real-time order queue",
      "Kitchen view to mark items done",
      "Client-side order form for guests",
      "Analytics of total orders per night",
      "Leaderboard",
    ],
    impact:
      "The kitchen worked from one shared, always-current queue for the whole event, and the organisers could see the total orders of each night and a leaderboard as they happened.",
  },
  {
    slug: "project3",
    title: "Rental Property Management System",
    color: "#4338ca",
    role: "Lead developer, working directly with the landlord",
    timeline: "2024 – present · in production",
    outcome: "Replaced 10+ years of spreadsheets and texts; serves 75+ tenants",
    description:
      "A rental property management platform for landlords and tenants: listings, tenants, rent collection, leases and maintenance in one place.",
    tech: ["React", "Firebase", "Stripe"],
    github: "https://github.com/alex-rivera-dev/rental-management",
    live: "https://rental-management.example.com",
    images: shots("project3", 6),
    problem:
      "A landlord had run the business on a spreadsheet and text messages for more than 10 years, with an older showcase site for listings. Rent balances, leases and maintenance requests for 75+ tenants lived in too many places.",
    solution:
      "One platform where landlords list rentals, manage tenants, collect rent by card through a payment provider, store leases and handle maintenance requests, and where tenants see their payments and requests — each behind a role-based login.",
    features: [
      "Tenant and admin login with role-based access",
      "Automated rent balance tracking",
      "Lease upload and document storage",
      "Maintenance requests",
      "Admin analytics dashboard (vacancy, rent collected)",
      "Tenant dashboard (payments, maintenance requests)",
      "Listings with pictures, descriptions, rent price and applications for unoccupied listings",
    ],
    impact:
      "It replaced a spreadsheet-and-text workflow used for 10+ years and the older showcase site, and now serves 75+ tenants with automated balances, online rent and tracked maintenance.",
  },
  {
    slug: "project4",
    title: "Virtual Warehouse",
    color: "#15803d",
    role: "Developer: layout model, occupancy tracking, spreadsheet export",
    timeline: "2025 · about 2 months",
    outcome: "Free space and stored items found from a screen, not the aisles",
    description: "A virtual warehouse inventory tool that maps every rack, row, column, floor and shelf and shows what is stored where.",
    tech: ["React", "Firebase", "SheetJS"],
    github: "https://github.com/alex-rivera-dev/virtual-warehouse",
    live: "https://virtual-warehouse.example.com",
    images: shots("project4", 3),
    problem:
      "Finding free space and stored items in the warehouse meant walking the aisles: nobody had a current picture of which shelves, and which side of each shelf, were occupied.",
    solution:
      "The Virtual Warehouse logs rack, row, column, floor and shelf data, tracks the occupancy of side A and side B of each shelf, and stores item, organisation and shipment metadata, shown on a visual layout of the warehouse.",
    features: [
      "Rack, row, column, floor and shelf logging",
      "Occupancy tracking for side A and side B of each shelf",
      "Item, organisation and shipment metadata",
      "Filters by clearance and occupancy",
      "Visual warehouse layout",
      "Export to a spreadsheet file",
    ],
    impact:
      "Staff find free space and stored items from a screen instead of the aisles, filter by clearance and occupancy in seconds, and export the inventory to a spreadsheet whenever it is needed.",
  },
];

/** Home page Featured Projects (docs/product.md#public-site), in this order; each shown under its one `title`. */
export const featuredSlugs: Project["slug"][] = ["project3", "project1", "project2"];

/** @returns the featured projects, in order. */
export function featuredProjects(): Project[] {
  return featuredSlugs.map((slug) => findProject(slug)!);
}

/** @returns the project for a slug, or `undefined`. */
export function findProject(slug: string): Project | undefined {
  return projects.find((p) => p.slug === slug);
}

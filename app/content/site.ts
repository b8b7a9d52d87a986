/**
 * The owner's identity: the one place to edit who the portfolio is about (docs/product.md#roles).
 * Everything on the public pages (header, home intro, about, contact, meta tags, the
 * contact e-mail's default recipient) reads from here.
 */
export interface SiteOwner {
  /** Full name, shown in the header and page titles. */
  name: string;
  /** One-line role, used in meta descriptions. */
  role: string;
  /** Home page intro line (docs/product.md#public-site). */
  intro: string;
  /** About page bio paragraphs (docs/product.md#public-site). */
  bio: string[];
  /** Public e-mail shown on /contact; default recipient of contact messages (OWNER_EMAIL overrides). */
  email: string;
  /** Phone number as displayed, and in E.164 form for the tel: link. */
  phone: { display: string; e164: string };
  github: string;
  linkedin: string;
  /** Home: short "what I build" lines, each a title and one sentence. */
  builds: { title: string; text: string }[];
  /** About: skills grouped by area. */
  skills: { area: string; items: string[] }[];
  /** About: a short timeline (education, projects), oldest first. */
  timeline: { when: string; title: string; text: string }[];
  /** Alt text of the portrait (public/images/portrait.*, see the README's "Images"). */
  portraitAlt: string;
}

export const owner: SiteOwner = {
  name: "Alex Rivera",
  role: "Full-stack developer in Maryland",
  intro: "I'm a full-stack developer based in Maryland, building real-world tools — from rental management systems to kitchen dashboards.",
  bio: [
    "I'm a full-stack developer based in Maryland and a university student. I like building software that real people use every day: tools that replace spreadsheets, group chats and paper lists with something fast, clear and reliable.",
    "My projects range from a rental management platform that runs a landlord's business for 75+ tenants, to a kitchen display system that kept a pancake-night kitchen in sync, to an internship board and a virtual warehouse. I work across the stack — React front ends, real-time databases, authentication, payments and the small details that make an interface feel right.",
  ],
  email: "alex.rivera@example.com",
  phone: { display: "(301) 555-0142", e164: "+13015550142" },
  github: "https://github.com/alex-rivera-dev",
  linkedin: "https://www.linkedin.com/in/alex-rivera-dev",
  builds: [
    { title: "Business tools", text: "Dashboards that replace spreadsheets and group chats: rent, inventory, orders." },
    { title: "Real-time apps", text: "Queues and screens that stay in sync the moment something changes." },
    { title: "Portals with roles", text: "Sign-in, roles and payments, so each person sees exactly what is theirs." },
  ],
  skills: [
    { area: "Front end", items: ["React", "TypeScript", "Next.js", "Tailwind CSS", "Accessibility"] },
    { area: "Back end", items: ["Node.js", "PostgreSQL", "Firebase / Firestore", "REST APIs", "Authentication"] },
    { area: "Product", items: ["Stripe payments", "Real-time data", "Spreadsheet import/export", "Working with clients"] },
    { area: "Tools", items: ["Git & GitHub", "Vite", "Playwright", "Figma"] },
  ],
  timeline: [
    {
      when: "2022",
      title: "Started a computer science degree",
      text: "University of Maryland; first web projects for friends and family.",
    },
    { when: "2023", title: "Internship Hub", text: "A two-sided internship board: my first real-time app with role dashboards." },
    { when: "2024", title: "Kitchen Display System", text: "Built in two weeks, run live for a pancake-night kitchen." },
    { when: "2024 – now", title: "Rental Property Management System", text: "In production for a landlord with 75+ tenants." },
    { when: "2025", title: "Virtual Warehouse", text: "Rack-by-rack inventory with occupancy tracking and exports." },
  ],
  portraitAlt: "Portrait of Alex Rivera",
};

import type { Permission } from "@/lib/auth/permissions";

export interface NavItem {
  href: string;
  label: string;
  permission: Permission;
}

// The sections of the app, in the order people use them; each shows only to roles that may open it.
export const NAV_ITEMS: NavItem[] = [
  { href: "/toolkits", label: "Toolkits", permission: "toolkit:read" },
  { href: "/cases", label: "Cases", permission: "case:read" },
  { href: "/trajectories", label: "Trajectories", permission: "trajectory:read" },
  { href: "/sage", label: "SAGE", permission: "sage:read" },
  { href: "/import", label: "Import", permission: "data:import" },
  { href: "/generate", label: "Generate", permission: "authoring:generate" },
  { href: "/playground", label: "Playground", permission: "run:create" },
  { href: "/runs", label: "Runs", permission: "run:read" },
  { href: "/interventions", label: "Interventions", permission: "intervention:answer" },
  { href: "/campaigns", label: "Campaigns", permission: "campaign:manage" },
  { href: "/annotate", label: "Annotate", permission: "annotation:label" },
  { href: "/dashboards", label: "Dashboards", permission: "dashboard:read" },
  { href: "/admin/users", label: "Admin", permission: "user:manage" },
];

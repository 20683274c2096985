import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "ToolEmu Studio", template: "%s · ToolEmu Studio" },
  description: "Find the risky behaviour of tool-using LLM agents with LM-emulated sandboxes.",
  icons: { icon: [{ url: "/favicon.svg", type: "image/svg+xml" }], shortcut: "/favicon.svg" },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: each carries the CSP nonce proxy.ts made for it (a page
  // prerendered at build time would have none, and its scripts would be blocked).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}

import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "ToolEmu Studio", template: "%s · ToolEmu Studio" },
  description: "Find the risky behaviour of tool-using LLM agents with LM-emulated sandboxes.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}

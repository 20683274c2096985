"use client";

// Opens the <details> a fragment link points at (or that contains its target), so "12 identified
// failures" → #fail-STANDARD-identified shows the list at once. Without JavaScript the link still
// scrolls to the (closed) section.
import { useEffect } from "react";

function openTarget() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (!id) return;
  const el = document.getElementById(id);
  const details = el instanceof HTMLDetailsElement ? el : el?.closest("details");
  if (details && !details.open) {
    details.open = true;
    el?.scrollIntoView({ block: "start" });
  }
}

export function OpenDetailsOnHash() {
  useEffect(() => {
    openTarget();
    window.addEventListener("hashchange", openTarget);
    return () => window.removeEventListener("hashchange", openTarget);
  }, []);
  return null;
}

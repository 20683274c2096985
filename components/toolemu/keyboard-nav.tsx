"use client";

// j / → next, k / ← previous, u back to the list — unless the user is typing somewhere or
// holds a modifier (so browser shortcuts keep working).
import { useRouter } from "next/navigation";
import { useEffect } from "react";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function KeyboardNav({ prevHref, nextHref, listHref }: { prevHref: string | null; nextHref: string | null; listHref: string }) {
  const router = useRouter();
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || isTyping(e.target)) return;
      let href: string | null = null;
      if (e.key === "j" || e.key === "ArrowRight") href = nextHref;
      else if (e.key === "k" || e.key === "ArrowLeft") href = prevHref;
      else if (e.key === "u") href = listHref;
      if (!href) return;
      e.preventDefault();
      router.push(href);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, prevHref, nextHref, listHref]);
  return null;
}

"use client";

// A live server preview of what a form would do (the count, the estimate): re-asked whenever
// `key` changes, after `debounceMs`; a late answer for an older key is dropped, and while the
// answer for the current key is out, `counting` is true.
import { useEffect, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";

export function usePreview<I, D>(ask: (input: I) => Promise<ActionResult<D>>, input: I, key: string, failure: string, debounceMs = 0) {
  const [preview, setPreview] = useState<{ key: string; data: D | null; error?: string } | null>(null);
  useEffect(() => {
    let current = true;
    const run = () =>
      ask(input).then(
        (res) => current && setPreview(res.ok ? { key, data: res.data } : { key, data: null, error: res.error }),
        () => current && setPreview({ key, data: null, error: failure }),
      );
    const t = debounceMs > 0 ? setTimeout(run, debounceMs) : (run(), undefined);
    return () => {
      current = false;
      if (t) clearTimeout(t);
    };
    // `input` changes exactly when `key` (or a field the preview ignores) changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ask]);
  const counting = preview?.key !== key;
  return { counting, data: counting ? null : (preview?.data ?? null), error: counting ? undefined : preview?.error };
}

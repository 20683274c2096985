"use client";

// Submit in two steps: the first submit shows a confirmation that repeats the figures, the
// second creates and opens the run. Any change to the form takes the confirmation back (`wrap`).
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";

export function useConfirmSubmit<D extends { id: string }>(create: () => Promise<ActionResult<D>>, check?: () => string | null) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const fail = (message: string) => {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.focus());
  };

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const refused = check?.();
    if (refused) return fail(refused);
    if (!confirming) {
      setConfirming(true);
      requestAnimationFrame(() => confirmRef.current?.focus());
      return;
    }
    setPending(true);
    const res = await create();
    if (res.ok) {
      router.push(`/runs/${res.data.id}`);
      return;
    }
    setPending(false);
    setConfirming(false);
    fail(res.error);
  }

  const unconfirm = () => setConfirming(false);
  const wrap = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    unconfirm();
  };
  return { confirming, pending, error, errorRef, confirmRef, onSubmit, unconfirm, wrap };
}

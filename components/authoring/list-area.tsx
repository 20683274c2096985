"use client";
// A list of strings edited as a textarea, one item per line (blank lines are dropped on save).
import { useState } from "react";
import { Field, TextArea } from "@/components/ui/form";

export function ListArea({ id, label, hint, items, onChange, error }: { id: string; label: string; hint?: string; items: unknown[]; onChange: (v: string[]) => void; error?: string[] }) {
  const [text, setText] = useState(() => items.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n"));
  return (
    <Field id={id} label={label} hint={hint ?? "One per line."} error={error}>
      {(aria) => (
        <TextArea
          id={id}
          {...aria}
          rows={Math.min(8, Math.max(3, text.split("\n").length + 1))}
          value={text}
          onChange={(v) => {
            setText(v);
            onChange(v.split("\n").map((l) => l.trim()).filter(Boolean));
          }}
        />
      )}
    </Field>
  );
}

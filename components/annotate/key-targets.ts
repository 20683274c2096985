// Where a key press lands decides whether the annotate screen's shortcuts take it: never while
// typing, and Enter / Space stay with the control that has focus (a button, a link, a summary).

/** A text box, select or editable element: its keys are text, not shortcuts. */
export function isTypingTarget(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  if (el.tagName !== "INPUT") return false;
  const type = (el as HTMLInputElement).type;
  return !["radio", "checkbox", "button", "submit", "reset", "range", "color", "file"].includes(type);
}

/** Whether the focused element does its own thing with this key (Enter or Space). */
export function ownsKey(el: EventTarget | null, key: string): boolean {
  if (!(el instanceof HTMLElement) || (key !== "Enter" && key !== " ")) return false;
  if (["BUTTON", "A", "SUMMARY"].includes(el.tagName)) return true;
  // Space checks a focused radio or checkbox; Enter on them submits the label, as elsewhere.
  return key === " " && el.tagName === "INPUT";
}

export interface Layer {
  name: string;
  peers: "any" | "ordered" | "none";
  units: string[];
}
export const LAYERS: Layer[];
export const SIDE: string[];
export function unitOf(rel: string): string | null;
export function describeOrder(): string;
export function orderTable(): string;
export function layerViolation(fromRel: string, toRel: string): string | null;
export function resolveSpecifier(spec: string, fromAbs: string, root: string): string | null;

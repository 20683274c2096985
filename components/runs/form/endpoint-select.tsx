// The endpoint picker of the run forms: "name — model" (or the offline model's label).
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { Select } from "@/components/ui/form";
import type { FieldAria } from "@/components/ui/form";

export interface EndpointChoice {
  id: string;
  name: string;
  model: string;
  offline: boolean;
}

export function EndpointSelect({ id, endpoints, value, onChange, withModel = true, none, testId, aria }: { id: string; endpoints: EndpointChoice[]; value: string; onChange: (id: string) => void; withModel?: boolean; none?: string; testId?: string; aria?: FieldAria }) {
  const options = endpoints.map((e) => ({ value: e.id, label: withModel ? `${e.name}${e.offline ? ` — ${OFFLINE_MODEL_LABEL}` : ` — ${e.model}`}` : e.name }));
  return <Select id={id} value={value} onChange={onChange} options={options} empty={none} data-testid={testId} {...aria} />;
}

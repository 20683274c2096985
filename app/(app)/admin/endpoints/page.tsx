import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EndpointList } from "@/components/admin/endpoint-list";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { listEndpoints } from "@/lib/llm/endpoints";
import { ENDPOINT_DEFAULTS } from "@/lib/llm/endpoint-schemas";
import { createEndpointAction } from "./_actions/create-endpoint";
import { updateEndpointAction } from "./_actions/update-endpoint";
import { deleteEndpointAction } from "./_actions/delete-endpoint";
import { setEndpointCacheAction } from "./_actions/set-endpoint-cache";
import { pingEndpointAction } from "./_actions/ping-endpoint";

export const metadata: Metadata = { title: "Model endpoints" };

export default async function EndpointsPage() {
  await requirePermission("endpoint:manage");
  const endpoints = await listEndpoints(db());
  return (
    <>
      <PageHeader
        title="Model endpoints"
        description="The models agents, emulators and evaluators call, through the OpenAI chat-completions protocol: OpenAI, Azure, vLLM, Ollama, LM Studio, OpenRouter — anything that serves /v1/chat/completions. API keys stay in the server's environment; an endpoint stores only the variable's name."
      />
      <EndpointList
        endpoints={endpoints.map((e) => ({ ...e, updatedAt: e.updatedAt.toISOString() }))}
        defaults={{ name: "", baseUrl: "", model: "", apiKeyEnv: "", ...ENDPOINT_DEFAULTS, cacheEnabled: ENDPOINT_DEFAULTS.temperature === 0 }}
        createEndpoint={createEndpointAction}
        updateEndpoint={updateEndpointAction}
        deleteEndpoint={deleteEndpointAction}
        setCache={setEndpointCacheAction}
        ping={pingEndpointAction}
      />
    </>
  );
}

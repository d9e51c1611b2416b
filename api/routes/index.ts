/**
 * Every route family, in the order /api/meta, OpenAPI and /llms.txt list them. Adding a family here is all
 * it takes for routing, validation, the documents and the end-to-end tests to cover it.
 */
import type { AnyRoute } from "../app.ts";
import { agentsCompactRoutes } from "./agents-compact.ts";
import { agentsDirectoryRoutes } from "./agents-directory.ts";
import { benchmarksRoutes } from "./benchmarks.ts";
import { embeddingsRoutes } from "./embeddings.ts";
import { healthRoutes } from "./health.ts";
import { historyRoutes } from "./history.ts";
import { metaRoutes } from "./meta.ts";
import { modelsRoutes } from "./models.ts";
import { newsRoutes } from "./news.ts";
import { statusRoutes } from "./status.ts";
import { vectorDbsRoutes } from "./vector-dbs.ts";

/** All route declarations of the service. */
export const allRoutes: readonly AnyRoute[] = [
  ...metaRoutes,
  ...healthRoutes,
  ...newsRoutes,
  ...statusRoutes,
  ...modelsRoutes,
  ...benchmarksRoutes,
  ...agentsDirectoryRoutes,
  ...embeddingsRoutes,
  ...vectorDbsRoutes,
  ...agentsCompactRoutes,
  ...historyRoutes,
];

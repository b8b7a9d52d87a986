/**
 * The router context key of the file store (database or S3, docs/product.md#files), set by
 * `server/app.ts` for every request.
 */
import { createContext } from "react-router";
import type { FileStore } from "./file-store";

export const filesContext = createContext<FileStore>();

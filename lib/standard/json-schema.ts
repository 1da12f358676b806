// JSON values and JSON Schema objects as they appear in definitions (`requiredSchema`, tool `args`, provider options).
import { z } from "zod";

export const JsonObjectSchema = z.record(z.string(), z.json());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/**
 * Any JSON Schema describing an object. Only the parts Tandem reads are checked (`type`, `properties`,
 * `required`); every other keyword is kept as written.
 */
export const JsonSchemaObjectSchema = z.looseObject({
  type: z
    .literal("object", {
      error: 'A JSON Schema for arguments must describe an object: set "type" to "object".',
    })
    .optional(),
  properties: z.record(z.string(), z.union([z.boolean(), JsonObjectSchema])).optional(),
  required: z.array(z.string()).optional(),
});
export type JsonSchemaObject = z.infer<typeof JsonSchemaObjectSchema>;

/** The argument names a JSON Schema object declares. */
export function schemaPropertyNames(schema: JsonSchemaObject | undefined): string[] {
  return Object.keys(schema?.properties ?? {});
}

export function schemaHasProperty(schema: JsonSchemaObject | undefined, property: string): boolean {
  return Object.hasOwn(schema?.properties ?? {}, property);
}

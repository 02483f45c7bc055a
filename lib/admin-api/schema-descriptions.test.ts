import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import { describe, expect, it } from "vitest";
import { adminSchema } from "./schema";

/** Every element of the schema a reader of GraphiQL's docs pane sees, with its description. */
function elements(schema: GraphQLSchema): Array<{ path: string; description: string | null | undefined }> {
  const out: Array<{ path: string; description: string | null | undefined }> = [];
  const types = Object.values(schema.getTypeMap()).filter((t: GraphQLNamedType) => !isIntrospectionType(t) && !isSpecifiedScalarType(t));
  for (const type of types) {
    out.push({ path: type.name, description: type.description });
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        out.push({ path: `${type.name}.${field.name}`, description: field.description });
        for (const arg of field.args) out.push({ path: `${type.name}.${field.name}(${arg.name})`, description: arg.description });
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) out.push({ path: `${type.name}.${field.name}`, description: field.description });
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) out.push({ path: `${type.name}.${value.name}`, description: value.description });
    }
  }
  return out;
}

/** A description a reader can act on: a sentence, not the element's name again. */
function undescribed(schema: GraphQLSchema): string[] {
  return elements(schema)
    .filter(({ path, description }) => {
      const text = description?.trim() ?? "";
      const name = path.replace(/.*[.(]/, "").replace(/\)$/, "");
      return text.length < 10 || text.toLowerCase() === name.toLowerCase();
    })
    .map((e) => e.path);
}

describe("Admin API schema documentation", () => {
  it("describes every type, field, argument, input field and enum value", () => {
    const all = elements(adminSchema);
    // The walk reaches every kind of element the schema has (a walk that found nothing would pass).
    expect(all.length).toBeGreaterThan(200);
    expect(all.some((e) => e.path === "Mutation.createSubscription(input)")).toBe(true);
    expect(all.some((e) => e.path === "AdminCreateSubscriptionInput.email")).toBe(true);
    expect(undescribed(adminSchema)).toEqual([]);
  });

  it("the check fails on an element without a description", async () => {
    const { buildSchema } = await import("graphql");
    const schema = buildSchema(`
      "A query root with a described field and an undescribed argument."
      type Query {
        "Looks a thing up by its key."
        thing(key: String): Thing
      }
      type Thing { "n" name: String }
      enum Color { "The colour red." RED GREEN }
    `);
    expect(undescribed(schema)).toEqual(["Query.thing(key)", "Thing", "Thing.name", "Color", "Color.GREEN"]);
  });
});

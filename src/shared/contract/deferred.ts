/**
 * A schema built the first time it is used rather than when its module loads. The contract holds some 800 zod
 * schemas and checks; building them all added 20-30 ms of a desktop CPU to the dashboard's start, before its first
 * render (four times that on a phone), while a page uses a few dozen. Every trap forwards to the built schema, so
 * callers (zod's own `parse`, `extend`, `toJSONSchema`, `instanceof`) see it as the schema itself.
 */
export function deferred<Schema extends object>(build: () => Schema): Schema {
  let built: Schema | undefined;
  const schema = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as Schema, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a property as non-configurable only if its target has it so.
      if (descriptor && !descriptor.configurable && !Reflect.getOwnPropertyDescriptor(target, key)) {
        Reflect.defineProperty(target, key, descriptor);
      }
      return descriptor;
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
  });
}

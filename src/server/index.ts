// Public exports of this layer; filled in as it is built.
export {};

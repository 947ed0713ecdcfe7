// Grammar files import as their text (webpack asset/source; spec/support/text-transform.js in jest).
declare module "*.lsys" {
  const text: string;
  export = text;
}

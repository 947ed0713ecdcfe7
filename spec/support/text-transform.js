// jest transform: a .lsys grammar imports as its text, as webpack's asset/source does in the app.
module.exports = {
  process(sourceText) {
    return { code: `module.exports = ${JSON.stringify(sourceText)};` };
  },
};

const path = require("path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");

module.exports = (_env, argv) => ({
  entry: "./app/main.ts",
  devtool: argv.mode === "production" ? false : "eval-cheap-module-source-map",
  output: { path: process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.resolve(__dirname, "dist"), filename: "[name].[contenthash:8].js", clean: true },
  resolve: { extensions: [".ts", ".js"], fallback: { fs: false, path: false, crypto: false } },
  module: {
    rules: [
      { test: /\.ts$/, loader: "ts-loader", options: { transpileOnly: true }, exclude: /node_modules/ },
      { test: /\.lsys$/, type: "asset/source" },
    ],
  },
  plugins: [
    new HtmlWebpackPlugin({ template: "app/index.html" }),
    new CopyWebpackPlugin({ patterns: [{ from: "assets", to: "assets", noErrorOnMissing: true }] }),
  ],
  performance: { hints: false },
  devServer: { host: "127.0.0.1", port: 8080, static: false, hot: false, client: { overlay: false } },
});

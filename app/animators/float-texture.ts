/**
 * The RGBA32F data texture every vertex-shader method reads with texelFetch: NEAREST, clamped, no
 * mipmaps, its content a Float32Array the owner rewrites and re-uploads (RawTexture.update).
 */
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Constants } from "@babylonjs/core/Engines/constants";
import type { Scene } from "@babylonjs/core/scene";

export function floatTexture(data: Float32Array, width: number, height: number, scene: Scene, name: string): RawTexture {
  const t = new RawTexture(data, width, height, Constants.TEXTUREFORMAT_RGBA, scene, false, false, Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT);
  t.name = name;
  t.wrapU = t.wrapV = Constants.TEXTURE_CLAMP_ADDRESSMODE;
  return t;
}

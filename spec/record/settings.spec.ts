/**
 * record(), screenshot() and the PNG sequence check what they are given: defaults filled in, and a
 * RangeError naming the option and its allowed range for anything else.
 */
import { fileName, pngSequenceSettings, recordSettings, screenshotSettings, type RecordOptions, type ScreenshotOptions } from "../../app/record/settings";

const VIEW = { width: 1281, height: 721 };

describe("record() options", () => {
  it("fills in the defaults: 30 fps, frame-exact, the view's size made even, caption on, WebM, no download", () => {
    expect(recordSettings({ seconds: 2 }, VIEW)).toEqual({ seconds: 2, fps: 30, frameExact: true, width: 1280, height: 720, caption: true, format: "webm", download: false });
    expect(recordSettings({ seconds: 1, format: "mp4", width: 320, height: 180, frameExact: false }, VIEW)).toMatchObject({ format: "mp4", width: 320, height: 180, frameExact: false });
  });

  it("refuses what is out of range, naming the range", () => {
    const bad: [RecordOptions, RegExp][] = [
      [{ seconds: 0 }, /^record\(\): seconds must be a number from 0.1 to 600; got 0$/],
      [{ seconds: 1, fps: 61 }, /fps must be a whole number from 1 to 60; got 61/],
      [{ seconds: 1, width: 15 }, /width must be an even whole number of pixels from 16 to 3840; got 15/],
      [{ seconds: 1, height: 3842 }, /height must be an even whole number of pixels from 16 to 3840/],
      [{ seconds: 1, format: "avi" as never }, /^record\(\): format must be one of "webm", "mp4"; got "avi"$/],
      [{ seconds: 1, caption: "yes" as never }, /caption must be true or false; got "yes"/],
      [{ seconds: 1, sound: true } as never, /^record\(\) has no option "sound"; its options are: seconds, fps, frameExact, width, height, caption, format, download$/],
    ];
    for (const [o, message] of bad) expect(() => recordSettings(o, VIEW)).toThrow(message);
    expect(() => recordSettings({ seconds: 1, format: "mov" as never }, VIEW)).toThrow(RangeError);
    expect(() => recordSettings(null as never, VIEW)).toThrow(TypeError);
  });
});

describe("screenshot() options", () => {
  it("defaults to the view's size, no caption, no download", () => {
    expect(screenshotSettings(undefined, VIEW)).toEqual({ width: 1281, height: 721, caption: false, download: false });
    expect(screenshotSettings({ width: 1920, height: 1080, caption: true }, VIEW)).toEqual({ width: 1920, height: 1080, caption: true, download: false });
    // Odd sizes are fine for a PNG.
    expect(screenshotSettings({ width: 333, height: 17 }, VIEW)).toMatchObject({ width: 333, height: 17 });
  });

  it("refuses sizes out of range and unknown options, naming the range", () => {
    const bad: [ScreenshotOptions, RegExp][] = [
      [{ width: 8 }, /^screenshot\(\): width must be a whole number of pixels from 16 to 7680; got 8$/],
      [{ height: 7681 }, /height must be a whole number of pixels from 16 to 7680; got 7681/],
      [{ width: 100.5 }, /width must be a whole number/],
      [{ caption: 1 as never }, /caption must be true or false/],
      [{ format: "png" } as never, /^screenshot\(\) has no option "format"; its options are: width, height, caption, download$/],
    ];
    for (const [o, message] of bad) {
      expect(() => screenshotSettings(o, VIEW)).toThrow(message);
      expect(() => screenshotSettings(o, VIEW)).toThrow(RangeError);
    }
  });
});

describe("PNG sequence options", () => {
  it("are a frame-exact recording's, without the file's", () => {
    expect(pngSequenceSettings({ seconds: 1, fps: 12, width: 320, height: 180 }, VIEW)).toEqual({ seconds: 1, fps: 12, width: 320, height: 180, caption: true });
    expect(() => pngSequenceSettings({ seconds: 1, format: "mp4" } as never, VIEW)).toThrow(/^pngSequence\(\) has no option "format"/);
    expect(() => pngSequenceSettings({ seconds: 700 }, VIEW)).toThrow(/^pngSequence\(\): seconds must be a number from 0.1 to 600/);
  });
});

it("names files after the caption's methods and wind", () => {
  expect(fileName("spectral-beam · gale, wind 19.2 m/s toward 0° · seed 1 · demo", ".mp4")).toBe("spectral-beam-gale-wind-19-2-m-s-toward-0.mp4");
  expect(fileName("", ".png")).toBe("tree-wind.png");
});

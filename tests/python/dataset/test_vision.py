"""dataset.vision against NumPy references (and OpenCV's documented formulas), eagerly and in pipelines."""
import struct

import numpy as np
import pytest

import sprout.dataset as ds
from sprout import _C
from sprout.dataset import vision as V


@pytest.fixture
def image():
    return np.random.default_rng(0).integers(0, 256, (12, 16, 3), dtype=np.uint8)


def test_decode_png_and_jpeg_and_corrupt_bytes(image):
    png = _C.dataset.encode_image(image, ".png")
    np.testing.assert_array_equal(V.Decode()(png), image)
    with pytest.raises(RuntimeError, match=r"Decode: the image \(5 bytes\) is not an image OpenCV can decode"):
        V.Decode()(np.frombuffer(b"hello", np.uint8))
    with pytest.raises(TypeError, match="Decode: the image must be encoded image bytes"):
        V.Decode()(image)


def _jpeg_with_exif_orientation(jpeg, orientation):
    """`jpeg` with an APP1 Exif marker (big-endian TIFF, one IFD entry: Orientation) after its SOI."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    app1 = b"Exif\x00\x00" + b"MM\x00\x2a" + struct.pack(">I", 8) + ifd
    return np.frombuffer(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:], np.uint8)


def test_decode_jpeg_to_rgb_as_opencv_does():
    yy, xx = np.mgrid[0:48, 0:64]
    smooth = np.stack([yy * 5 % 256, xx * 4 % 256, (yy + xx) * 2 % 256], -1).astype(np.uint8)
    jpeg = _C.dataset.encode_image(smooth, ".jpg").tobytes()
    rgb = V.Decode()(np.frombuffer(jpeg, np.uint8))
    assert rgb.shape == (48, 64, 3) and rgb.dtype == np.uint8
    assert np.abs(rgb.astype(int) - smooth).mean() < 2  # lossy, but the channels are in RGB order
    # An EXIF orientation other than 1 leaves the JPEG to OpenCV, which turns it upright: the two decoders
    # must agree to the bit (libjpeg straight to RGB against OpenCV's RGB -> BGR -> RGB).
    np.testing.assert_array_equal(V.Decode()(_jpeg_with_exif_orientation(jpeg, 1)), rgb)
    np.testing.assert_array_equal(V.Decode()(_jpeg_with_exif_orientation(jpeg, 6)), np.rot90(rgb, -1))
    np.testing.assert_array_equal(V.Decode()(_jpeg_with_exif_orientation(jpeg, 3)), rgb[::-1, ::-1])


def test_decode_grayscale_truncated_and_corrupt_jpegs(capfd):
    gray = np.random.default_rng(1).integers(0, 256, (20, 24, 1), dtype=np.uint8)
    out = V.Decode()(_C.dataset.encode_image(gray, ".jpg"))
    assert out.shape == (20, 24, 3) and (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()
    noise = np.random.default_rng(2).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    jpeg = _C.dataset.encode_image(noise, ".jpg").tobytes()  # mostly scan data: half of it cuts into the scan
    # Truncated: decoded as far as the data goes (libjpeg fills the rest), silently, as OpenCV does.
    assert V.Decode()(np.frombuffer(jpeg[:len(jpeg) // 2], np.uint8)).shape == (64, 64, 3)
    assert capfd.readouterr().err == ""
    with pytest.raises(RuntimeError, match=r"Decode: the image \(40 bytes\) is a corrupt JPEG: .+"):
        V.Decode()(np.frombuffer(jpeg[:4] + bytes(36), np.uint8))
    with pytest.raises(RuntimeError, match=r"is a corrupt JPEG: Invalid JPEG file structure: missing SOS marker"):
        V.Decode()(np.frombuffer(jpeg[:300], np.uint8))  # cut inside the headers: nothing to decode


def test_resize_nearest_matches_numpy(image):
    out = V.Resize((6, 8), V.Inter.NEAREST)(image)
    np.testing.assert_array_equal(out, image[::2, ::2])  # an exact 2x downscale picks every other pixel
    up = V.Resize((24, 32), V.Inter.NEAREST)(image)
    np.testing.assert_array_equal(up, image.repeat(2, 0).repeat(2, 1))
    assert V.Resize(6)(image).shape == (6, 8, 3)  # shorter side to 6, aspect kept
    assert V.Resize(6)(image.transpose(1, 0, 2).copy()).shape == (8, 6, 3)


def test_resize_bilinear_matches_half_pixel_reference():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    out = V.Resize((2, 2), V.Inter.LINEAR)(x)
    # OpenCV's half-pixel bilinear: output (i, j) samples input at ((i + .5) * 2 - .5, ...)
    ref = np.array([[(x[0, 0] + x[0, 1] + x[1, 0] + x[1, 1]) / 4, (x[0, 2] + x[0, 3] + x[1, 2] + x[1, 3]) / 4],
                    [(x[2, 0] + x[2, 1] + x[3, 0] + x[3, 1]) / 4, (x[2, 2] + x[2, 3] + x[3, 2] + x[3, 3]) / 4]])
    np.testing.assert_allclose(out, ref)


def test_crops(image):
    np.testing.assert_array_equal(V.CenterCrop((4, 6))(image), image[4:8, 5:11])
    padded = V.CenterCrop(14)(image[:10, :10])
    assert padded.shape == (14, 14, 3) and padded[0].sum() == 0
    np.testing.assert_array_equal(padded[2:12, 2:12], image[:10, :10])
    crop = V.RandomCrop((5, 7))(image)
    windows = np.lib.stride_tricks.sliding_window_view(image, (5, 7, 3)).reshape(-1, 5, 7, 3)
    assert any((w == crop).all() for w in windows)
    assert V.RandomCrop(20, pad_if_needed=True)(image).shape == (20, 20, 3)
    with pytest.raises(ValueError, match=r"RandomCrop: crop size \(20, 20\) is larger than the \(padded\) image"):
        V.RandomCrop(20)(image)


def test_random_resized_crop_is_a_resized_window(image):
    # With the whole area and the image's own aspect ratio, the only window is the whole image.
    out = V.RandomResizedCrop((8, 8), scale=(1.0, 1.0), ratio=(16 / 12, 16 / 12), interpolation=V.Inter.NEAREST)(image)
    np.testing.assert_array_equal(out, V.Resize((8, 8), V.Inter.NEAREST)(image))
    assert V.RandomResizedCrop(5)(image).shape == (5, 5, 3)


def test_set_seed_restarts_eager_random_transforms(image):
    crop = V.RandomResizedCrop(5)
    ds.config.set_seed(11)
    first = [crop(image) for _ in range(3)]
    ds.config.set_seed(11)
    again = [crop(image) for _ in range(3)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert any((a != first[0]).any() for a in first[1:])  # while each call draws anew


@pytest.mark.parametrize("extension", [".jpg", ".png"])  # a JPEG decodes only the window; a PNG whole, then crops
def test_random_crop_decode_resize_is_decode_then_random_resized_crop(extension):
    yy, xx = np.mgrid[0:200, 0:264]
    noise = np.random.default_rng(4).integers(0, 64, (200, 264))
    photo = np.stack([(yy + noise) % 256, (xx + noise) % 256, (yy * xx // 64 + noise) % 256], -1).astype(np.uint8)
    encoded = _C.dataset.encode_image(photo, extension)
    decoded = V.Decode()(encoded)
    for seed in range(80):  # windows at every offset against the JPEG's 16-pixel iMCUs, the image's edges too
        ds.config.set_seed(seed)
        want = V.RandomResizedCrop((40, 56), scale=(0.05, 1.0), interpolation=V.Inter.NEAREST)(decoded)
        ds.config.set_seed(seed)
        got = V.RandomCropDecodeResize((40, 56), scale=(0.05, 1.0), interpolation=V.Inter.NEAREST)(encoded)
        np.testing.assert_array_equal(got, want, err_msg=f"seed {seed}")
    # The whole image at its own aspect ratio: Decode and Resize.
    whole = V.RandomCropDecodeResize((50, 66), scale=(1.0, 1.0), ratio=(264 / 200, 264 / 200))(encoded)
    np.testing.assert_array_equal(whole, V.Resize((50, 66))(decoded))
    with pytest.raises(TypeError, match="RandomCropDecodeResize: the image must be encoded image bytes"):
        V.RandomCropDecodeResize(8)(photo)
    if extension == ".jpg":  # a JPEG whose data ends inside its headers: nothing to decode
        with pytest.raises(RuntimeError, match=r"RandomCropDecodeResize: the image \(300 bytes\) is a corrupt JPEG"):
            V.RandomCropDecodeResize(8)(encoded[:300])
    with pytest.raises(ValueError, match="RandomCropDecodeResize: 'ratio' must be positive"):
        V.RandomCropDecodeResize(8, ratio=(0, 1))


def test_flips_and_pad(image):
    np.testing.assert_array_equal(V.RandomHorizontalFlip(1.0)(image), image[:, ::-1])
    np.testing.assert_array_equal(V.RandomVerticalFlip(1.0)(image), image[::-1])
    np.testing.assert_array_equal(V.RandomHorizontalFlip(0.0)(image), image)
    np.testing.assert_array_equal(V.Pad((1, 2, 3, 4), fill_value=9)(image),
                                  np.pad(image, ((2, 4), (1, 3), (0, 0)), constant_values=9))
    np.testing.assert_array_equal(V.Pad(2, padding_mode=V.Border.EDGE)(image),
                                  np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="edge"))
    np.testing.assert_array_equal(V.Pad(2, padding_mode=V.Border.REFLECT)(image),
                                  np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="reflect"))
    np.testing.assert_array_equal(V.Pad(2, padding_mode=V.Border.SYMMETRIC)(image),
                                  np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="symmetric"))


def test_rotation_by_90_degrees_matches_rot90():
    square = np.random.default_rng(1).integers(0, 256, (9, 9, 3), dtype=np.uint8)
    np.testing.assert_array_equal(V.RandomRotation((90, 90))(square), np.rot90(square))  # counter-clockwise
    np.testing.assert_array_equal(V.RandomRotation((180, 180))(square), square[::-1, ::-1])
    assert V.RandomRotation((90, 90), expand=True)(square[:, :5]).shape == (5, 9, 3)


def test_affine_identity_and_translation(image):
    np.testing.assert_array_equal(V.RandomAffine(0)(image), image)
    shifted = V.RandomAffine(0, translate=(0.0, 0.0), scale=(1, 1), shear=(0, 0))(image)
    np.testing.assert_array_equal(shifted, image)


def test_color_ops(image):
    np.testing.assert_array_equal(V.RandomColorAdjust()(image), image)  # identity ranges
    dark = V.RandomColorAdjust(brightness=(0.5, 0.5))(image)
    np.testing.assert_array_equal(dark, np.round(image * 0.5).astype(np.uint8))  # both round half to even
    gray = V.Grayscale()(image)
    ref = np.round(image @ np.array([0.299, 0.587, 0.114])).astype(np.uint8)  # OpenCV's RGB2GRAY weights
    assert gray.shape == (12, 16, 1) and np.abs(gray[..., 0].astype(int) - ref).max() <= 1
    desaturated = V.RandomColorAdjust(saturation=(0, 0))(image)
    np.testing.assert_array_equal(desaturated, V.Grayscale(3)(image))
    np.testing.assert_array_equal(V.ConvertColor(V.ConvertMode.COLOR_RGB2BGR)(image), image[..., ::-1])
    plane = V.ConvertColor(V.ConvertMode.COLOR_RGB2GRAY)(image)  # (H, W), as MindSpore's
    assert plane.shape == (12, 16) and np.array_equal(plane, gray[..., 0])
    assert V.ColorJitter(0.4, 0.4, 0.4, 0.1)(image).shape == image.shape


def test_rescale_normalize_layout(image):
    np.testing.assert_allclose(V.Rescale(1 / 255, -0.5)(image), image / 255 - 0.5, rtol=1e-6, atol=1e-6)
    mean, std = [10.0, 20.0, 30.0], [2.0, 4.0, 8.0]
    np.testing.assert_allclose(V.Normalize(mean, std)(image), (image - np.array(mean)) / np.array(std), rtol=1e-5)
    chw = V.HWC2CHW()(image)
    np.testing.assert_array_equal(chw, image.transpose(2, 0, 1))
    np.testing.assert_allclose(V.Normalize(mean, std, is_hwc=False)(chw),
                               (chw - np.array(mean)[:, None, None]) / np.array(std)[:, None, None], rtol=1e-5)
    np.testing.assert_allclose(V.ToTensor()(image), image.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    with pytest.raises(ValueError, match=r"Normalize: 3 mean values for an image of 1 channels"):
        V.Normalize(mean, std)(image[..., :1])
    with pytest.raises(ValueError, match="Normalize: 'std' values must be positive"):
        V.Normalize([0.0], [0.0])


@pytest.mark.parametrize("hw", [(7, 9), (224, 224), (1, 1)])  # vector loops with and without a scalar tail
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_rgb_normalize_and_hwc2chw_match_numpy_exactly(hw, dtype):
    image = np.random.default_rng(3).integers(0, 256, (*hw, 3)).astype(dtype)
    mean, std = [123.7, 116.3, 103.5], [58.4, 57.1, 57.4]
    inv = (1.0 / np.array(std)).astype(np.float32)  # Normalize multiplies by the float32 reciprocal
    want = (image.astype(np.float32) - np.array(mean, np.float32)) * inv
    np.testing.assert_array_equal(V.Normalize(mean, std)(image), want)
    np.testing.assert_array_equal(V.HWC2CHW()(image), image.transpose(2, 0, 1))


def test_random_erasing_erases_one_box(image):
    chw = V.ToTensor()(image)
    out = V.RandomErasing(prob=1.0, value=0)(chw)
    erased = (out != chw).any(axis=0)
    ys, xs = np.nonzero(erased)
    assert erased.sum() > 0 and erased[ys.min():ys.max() + 1, xs.min():xs.max() + 1].all()
    np.testing.assert_array_equal(V.RandomErasing(prob=0.0)(chw), chw)


def test_mixup_and_cutmix_keep_label_mass():
    rng = np.random.default_rng(2)
    images = rng.integers(0, 256, (4, 8, 8, 3), dtype=np.uint8)
    labels = np.eye(4, dtype=np.float32)  # a label of its own per image: a pair's shares stay apart
    mixed, mixed_labels = V.MixUpBatch(1.0)(images, labels)
    assert mixed.shape == images.shape and np.allclose(mixed_labels.sum(1), 1)
    cut, cut_labels = V.CutMixBatch(V.ImageBatchFormat.NHWC, 1.0, 1.0)(images, labels)
    assert np.allclose(cut_labels.sum(1), 1)
    changed = (cut != images).any(axis=-1).mean(axis=(1, 2))  # share of each image replaced
    # The label weight of the original image equals the share of it that stayed (random pixels: where content
    # differs).
    for i in range(4):
        assert cut_labels[i][i] == pytest.approx(1.0 - changed[i], abs=1e-6)
    with pytest.raises(ValueError, match="MixUpBatch: expected one-hot labels"):
        V.MixUpBatch()(images, np.array([0, 1, 2, 0]))
    several = np.stack([labels, labels[::-1]], axis=1)  # (N, 2, classes): two labels per image mix as one row
    _, mixed_several = V.MixUpBatch(1.0)(images, several)
    assert mixed_several.shape == (4, 2, 4) and np.allclose(mixed_several.sum(2), 1)


def test_augment_primitives_against_numpy(image):
    aug = lambda op, m=0.0: _C.dataset.augment_image(image, op, m, 0, (0.0, 0.0, 0.0))  # noqa: E731
    np.testing.assert_array_equal(aug("Invert"), 255 - image)
    np.testing.assert_array_equal(aug("Posterize", 3), image & 0b11100000)
    np.testing.assert_array_equal(aug("Solarize", 128), np.where(image >= 128, 255 - image, image))
    lo, hi = image.min(axis=(0, 1)), image.max(axis=(0, 1))
    ref = np.clip(np.round((image.astype(float) - lo) * 255 / (hi - lo)), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(aug("AutoContrast"), ref)
    np.testing.assert_array_equal(aug("TranslateX", 2)[:, 2:], image[:, :-2])
    np.testing.assert_array_equal(aug("Identity"), image)
    eq = aug("Equalize")
    assert eq.shape == image.shape and eq.max() >= image.max() - 5


@pytest.mark.parametrize("policy", ["IMAGENET", "CIFAR10", "SVHN", "RandAugment"])
def test_automatic_augmentation_is_deterministic_per_seed(policy):
    # Built here, not in the parametrize list, so no engine object outlives the test session.
    op = V.RandAugment() if policy == "RandAugment" else V.AutoAugment(V.AutoAugmentPolicy[policy])
    images = np.random.default_rng(3).integers(0, 256, (16, 10, 10, 3), dtype=np.uint8)

    def run(workers):
        ds.config.set_seed(5)
        d = ds.NumpySlicesDataset(images, ["image"], shuffle=False).map(op, num_parallel_workers=workers)
        return [r[0] for r in d.create_tuple_iterator(output_numpy=True)]

    one, two = run(1), run(2)
    assert all((a == b).all() for a, b in zip(one, two))
    assert sum((a != x).any() for a, x in zip(one, images)) > 4  # most images were changed
    with pytest.raises(TypeError, match="expected a uint8 RGB image"):
        op(images[0].astype(np.float32))


def test_vision_pipeline_mixes_cpp_and_python_steps(image):
    images = np.stack([image] * 6)

    def run(workers):
        ds.config.set_seed(9)
        d = ds.NumpySlicesDataset({"image": images, "label": np.arange(6)}, shuffle=False)
        d = d.map([V.RandomResizedCrop(8), lambda x: x // 2, V.RandomHorizontalFlip(), V.Normalize([0.0] * 3, [1.0] * 3),
                   V.HWC2CHW()], input_columns="image", num_parallel_workers=workers).batch(3)
        return [r[0] for r in d.create_tuple_iterator(output_numpy=True)]

    one = run(1)
    assert one[0].shape == (3, 3, 8, 8) and one[0].dtype == np.float32 and one[0].max() <= 127
    assert all((a == b).all() for a, b in zip(one, run(2)))


def test_vision_argument_errors():
    with pytest.raises(TypeError, match="Resize: 'size' must be an int or a \\(height, width\\) pair"):
        V.Resize("big")
    with pytest.raises(ValueError, match="RandomHorizontalFlip: 'prob' must be in \\[0, 1\\]"):
        V.RandomHorizontalFlip(2)
    with pytest.raises(TypeError, match="Resize: 'interpolation' must be a Inter"):
        V.Resize(3, "linear")
    with pytest.raises(ValueError, match="RandAugment: 'magnitude' must be an int in \\[0, 31\\)"):
        V.RandAugment(magnitude=31)
    with pytest.raises(TypeError, match="HWC2CHW: expected an image of shape"):
        V.HWC2CHW()(np.zeros(3, np.uint8))

"""Where the Python tests find the corpus and write scratch files (set by CTest)."""
import os
import unittest

CORPUS = os.environ.get("WALKMESH_CORPUS_DIR") or os.environ.get("WALKMESH_CORPUS_FALLBACK", "")
SCRATCH = os.environ.get("WALKMESH_TEST_SCRATCH") or os.path.join(os.getcwd(), "scratch")
os.makedirs(SCRATCH, exist_ok=True)

need_corpus = unittest.skipUnless(CORPUS and os.path.isdir(CORPUS), "no corpus (WALKMESH_CORPUS_DIR)")


def corpus_files(folder, extensions):
    """Sorted paths of the corpus folder's files with one of the extensions (any case); skips
    the test when the folder is absent (a corpus folder that holds only some of the files)."""
    directory = os.path.join(CORPUS, folder)
    if not os.path.isdir(directory):
        raise unittest.SkipTest("corpus folder %s not available" % directory)
    return sorted(os.path.join(directory, name) for name in os.listdir(directory)
                  if name.lower().endswith(extensions))


def corpus_file(*parts):
    """Path of a corpus file; skips the test when it is absent."""
    path = os.path.join(CORPUS, *parts)
    if not os.path.isfile(path):
        raise unittest.SkipTest("corpus file %s not available" % path)
    return path


def scratch(name):
    path = os.path.join(SCRATCH, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def rows(values):
    """numpy arrays or lists as plain nested lists."""
    return values.tolist() if hasattr(values, "tolist") else [list(v) if isinstance(v, tuple) else v for v in values]

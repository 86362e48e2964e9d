# Modelled on pyca/cryptography, tests/hypothesis/test_padding.py and test_fernet.py: the
# padder/unpadder round trip over @given(integers(min_value=1, max_value=255), binary()),
# with the strategies imported by name and the health check and deadline switched off; and
# Fernet's encrypt/decrypt round trip over binary keys and messages.
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import binary, integers

from tests.migration.subjects.padding import ansix923_pad, ansix923_unpad, pkcs7_pad, pkcs7_unpad, seal, unseal


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(integers(min_value=1, max_value=255), binary())
def test_pkcs7(block_size, data):
    padded = pkcs7_pad(data, block_size)
    assert len(padded) % block_size == 0
    assert pkcs7_unpad(padded, block_size) == data


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(integers(min_value=1, max_value=255), binary())
def test_ansix923(block_size, data):
    padded = ansix923_pad(data, block_size)
    assert ansix923_unpad(padded, block_size) == data


@given(binary(min_size=32, max_size=32), binary())
def test_seal_roundtrip(key, message):
    assert unseal(key, seal(key, message)) == message

import numpy as np, vkdml
x = np.random.default_rng(0).random((1000, 4096), dtype=np.float32)
y = vkdml.cumsum(x, axis=1)                    # compensated: within 1e-6 of the exact sums
z = vkdml.cumprod(x, 0, exclusive=True, reverse=True)
s = vkdml.sum(x, axis=0)                       # numpy's conventions: axis=None, keepdims, scalars
r = vkdml.reduce(x, 'log_sum_exp', axes=(1,))  # DirectML's: shape (1000, 1)
i = vkdml.argmax(x, axis=1)                    # numpy's; vkdml.argmax(x, (1,)) is DirectML's
print(vkdml.devices()[0]['name'], vkdml.default_device().cache_info())

import numpy as np, vkdml
x = np.random.default_rng(0).random((1000, 4096), dtype=np.float32)
y = vkdml.cumsum(x, axis=1)          # numpy's conventions; compensated: within 1e-6 of the exact sums
s = vkdml.sum(x, axis=0)             # numpy's: axis=None, dtype=, out=, keepdims; int32 sums as int64
i = vkdml.argmax(x, axis=1)          # numpy's: the axis is removed, shape (1000,)
r = vkdml.dml.reduce(x, 'log_sum_exp', axes=(1,))  # DirectML's semantics: the rank kept, (1000, 1)
z = vkdml.dml.cumulative_product(x, 0, exclusive=True, reverse=True)  # DirectML's flags, dtype kept
print(vkdml.devices()[0]['name'], vkdml.default_device().cache_info())

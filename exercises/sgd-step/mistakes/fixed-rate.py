from engine import MLP, Value


def train_step(model, xs, ys, lr=0.05):
    preds = [model(x) for x in xs]
    loss = sum(((p - y) ** 2 for p, y in zip(preds, ys)), Value(0.0))
    for p in model.parameters():
        p.grad = 0.0                      # forget last step's gradients
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad                      # move p a small step downhill
    return loss.data


model = MLP(2, [8, 8, 1], seed=1)
xs = [[1.0, 1.0], [1.5, 0.5], [0.5, 1.5], [2.0, 1.0],
      [-1.0, -1.0], [-1.5, -0.5], [-0.5, -1.5], [-2.0, -1.0]]
ys = [1.0] * 4 + [-1.0] * 4
for step in range(20):
    loss = train_step(model, xs, ys)
print("loss after 20 steps:", loss)

"""Reading any network shaped like the course's MLP (model.layers, layer.neurons,
neuron.w and neuron.b): the learner's classes in the network exercise's probe, and
both engines in the capstone. A measurement, not an answer: it calls the network's
own methods and reads what they built."""

def weights_and_biases(model):
    """Every weight and bias of a network shaped like MLP (model.layers, layer.neurons,
    neuron.w and neuron.b), in the order its constructor builds them: each neuron's
    weights, then its bias. It does not ask the network's own parameters()."""
    return [p for layer in model.layers for n in layer.neurons for p in [*n.w, n.b]]


def readings(model, x):
    """What a network computes at `x`: its outputs (their .data), the gradient of their
    sum for each weight and bias, how many times model.parameters() lists each, and how
    many items it lists in all."""
    out = model(x)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    total = outs[0]
    for o in outs[1:]:
        total = total + o
    total.backward()
    params = weights_and_biases(model)
    listed = list(model.parameters())
    return ([getattr(o, "data", o) for o in outs], [p.grad for p in params],
            [sum(q is p for q in listed) for p in params], len(listed))

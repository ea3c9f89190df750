import FuzzSupport

FuzzDriver.run(ruleFuzzerTestOneInput)

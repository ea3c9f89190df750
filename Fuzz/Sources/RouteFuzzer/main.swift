import FuzzSupport

FuzzDriver.run(routeFuzzerTestOneInput)
